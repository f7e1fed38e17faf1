"""The Mare Nostrum campaign (2010): the first ruleset."""
