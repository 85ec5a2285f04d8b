"""The referee's tablet: Flask app, SQLite store, live updates."""
