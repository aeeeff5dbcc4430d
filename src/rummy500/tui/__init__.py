"""The terminal game (``rummy500 play``), built with Textual; the table session under it is
front-end neutral."""
