"""Handing a session to someone else: notes attached to it, and redaction that keeps the failure."""
