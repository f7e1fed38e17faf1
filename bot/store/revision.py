"""The schema revision this code reads and writes (the newest migration under bot/store/migrations/versions):
apart, so that the read-only reader (bot/store/reader.py) knows it without importing SQLAlchemy or alembic."""
HEAD_REVISION = "0010"
