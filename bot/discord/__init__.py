"""The Discord transport: discord.py's client, the slash commands, and how replies become Discord messages.

Inside this package ``import discord`` still means discord.py: imports are absolute.
"""
