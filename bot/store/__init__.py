"""The store: tables, opening and migrating the database, backups. Imports nothing else of ``bot``."""
