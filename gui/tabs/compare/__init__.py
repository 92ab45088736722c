"""File ▸ Compare with…: two sessions side by side, and the tables behind them."""
