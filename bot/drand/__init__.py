"""Fetching drand beacons from public relays: relay addresses, and a client that trusts no relay, only the pinned key."""
