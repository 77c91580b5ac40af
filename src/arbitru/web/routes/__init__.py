"""The app's routes, one module per format and concern."""
