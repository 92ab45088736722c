"""The files a person names: the one way to read them, the one way to write them, what a followed file was."""
