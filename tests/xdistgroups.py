"""The test groups of ``--dist loadgroup`` kept together under pytest 9.2.

pytest-xdist (3.8) puts a test's ``xdist_group`` into its id (``path::test@group``), which its
scheduler reads to send a group to one worker; it writes ``Item._nodeid``, which pytest 9.2 no
longer reads (an item's id is ``Item._id``). Every group was then spread over the workers, and
each worker built the group's module fixture again (a Ray head, a deal played through a page).
This plugin writes the id as pytest-xdist means to, after its own hook, and does nothing once
an id already carries its group.
"""

from __future__ import annotations

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not getattr(config.option, "loadgroup", False):  # set in pytest-xdist's workers
        return
    from _pytest.nodeid import NodeId

    for item in items:
        names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                        for mark in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid.rsplit("]", 1)[-1]:
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")
