"""SIZE as SPEC 6 writes it (bytes, KB MB ×1000, KiB MiB ×1024) and sizes as the views show them."""
import argparse

import pytest

from wsi_inspector.core.jsrules.sizes import FIELD_UNITS, SizeError, format_size, parse_size, parse_size_in_unit, size_argument, size_in_unit


@pytest.mark.parametrize(
    ("text", "expected"),
    [("0", 0), ("4096", 4096), ("64KiB", 65_536), ("64 KiB", 65_536), ("20KB", 20_000), ("3MB", 3_000_000),
     ("2MiB", 2_097_152), ("1.5MiB", 1_572_864), ("812B", 812), ("1,000", 1000), (" 7 ", 7)],
)
def test_parse_size_reads_bytes_and_each_suffix(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize(
    ("text", "says"),
    [("64kb", "did you mean KB?"), ("2mib", "did you mean MiB?"), ("5 GB", "unknown size suffix 'GB'"),
     ("-5", "cannot be negative"), ("abc", "not a size"), ("", "not a size"),
     ("0.1KiB", "102.4 bytes, not a whole number"), ("1.5", "not a whole number")],
)
def test_parse_size_refuses_bad_sizes_saying_how_to_write_one(text, says):
    with pytest.raises(SizeError) as caught:
        parse_size(text)
    assert says in str(caught.value)


def test_size_argument_turns_a_bad_size_into_an_argparse_usage_error():
    assert size_argument("1KiB") == 1024
    with pytest.raises(argparse.ArgumentTypeError, match="did you mean KiB"):
        size_argument("1kib")


@pytest.mark.parametrize(
    ("n", "shown"),
    [(0, "0 B"), (812, "812 B"), (1023, "1,023 B"), (1024, "1 KiB"), (65_536, "64 KiB"), (5713, "5.6 KiB"),
     (1_572_864, "1.5 MiB"), (1024 * 1024 - 1, "1 MiB"), (3 * 1024**3, "3 GiB"), (2000 * 1024**3, "2,000 GiB")],
)
def test_format_size_shows_bytes_then_kib_mib_gib_with_one_decimal(n, shown):
    assert format_size(n) == shown


@pytest.mark.parametrize(("size", "unit", "shown"),
                         [(5713, "KiB", "5.5791015625"), (65_536, "KiB", "64"), (1_048_576, "KiB", "1024"),
                          (1_572_864, "MiB", "1.5"), (0, "MiB", "0"), (812, "B", "812")])
def test_size_in_unit_writes_the_size_exactly_without_trailing_zeros(size, unit, shown):
    assert size_in_unit(size, unit) == shown


@pytest.mark.parametrize("unit", FIELD_UNITS)
def test_a_size_shown_in_a_unit_reads_back_as_the_same_bytes(unit):
    for size in (0, 1, 1023, 5713, 65_536, 1_572_864, 123_456_789):
        assert parse_size_in_unit(size_in_unit(size, unit), unit) == size


def test_a_bare_number_is_in_the_fields_unit_and_a_written_suffix_wins():
    assert parse_size_in_unit("64", "KiB") == 65_536
    assert parse_size_in_unit(" 1.5 ", "MiB") == 1_572_864
    assert parse_size_in_unit("20KB", "MiB") == 20_000
    assert parse_size_in_unit("100", "B") == 100
    with pytest.raises(SizeError, match="not a whole number of bytes"):
        parse_size_in_unit("0.1", "KiB")
    with pytest.raises(SizeError, match="not a size"):
        parse_size_in_unit("", "KiB")
