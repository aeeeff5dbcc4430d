"""The browser table of ``rummy500 serve``: pages, scripts and styles, and their routes."""
