"""Files the app reads at run time (the demo session, example broken files), shipped as package data."""
