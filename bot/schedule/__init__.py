"""Time: the draw calendar and clocks (``clock``), and the persistent scheduler of deadlines and fetches."""
