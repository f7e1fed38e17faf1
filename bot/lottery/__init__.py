"""The lottery: fetching draws from their sources, checking them, and agreeing on one."""
