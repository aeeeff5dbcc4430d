"""The subcommands of ``rummy500``, one module each with ``add_arguments`` and ``run``."""
