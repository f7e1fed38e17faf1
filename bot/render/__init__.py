"""Pictures of a campaign: the map (PNG and SVG, from one layout) and the history charts, drawn with Pillow.

``map_png.render_png`` and ``map_svg.render_svg`` draw the public state JSON on the ruleset's grid map;
``charts.render_chart`` draws provinces or stability per nation over the closed turns; ``cli.add_commands``
adds ``legatus map`` and ``legatus chart``. See docs/rendering.md.
"""
