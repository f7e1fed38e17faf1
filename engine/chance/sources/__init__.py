"""The sources of chance, one module each; engine/chance/registry.py lists them."""
