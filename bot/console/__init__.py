"""The offline console: play a campaign at a terminal or from a transcript, through the shared handlers."""
