"""Shared test settings: hypothesis profiles, and the tiers of the suite.

The ``ci`` profile is loaded by default; choose another with
``HYPOTHESIS_PROFILE=dev`` (quick) or ``HYPOTHESIS_PROFILE=soak`` (long). Random-play
tests scale with ``RUMMY500_SOAK=N`` (deals per configuration).

Each test is marked here by what it needs, read from the fixtures it uses: ``browser``
(Chromium), ``server`` (a real ``rummy500 serve`` process), ``postgres`` (the machine's
PostgreSQL), ``cluster`` (a Ray head, or a private PostgreSQL cluster of its own). ``slow``
goes with ``browser`` and ``cluster``, and with the tests of :data:`SLOW`, which need no
fixture that would tell but take seconds of CPU each. ``bash scripts/check --fast`` runs
the tests marked none of these; ``-m server`` and the like pick one tier (README). A test
that starts a server without asking for a fixture that does fails (serverkit), so that no
server test lands in the fast tier.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile(
    "soak",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The real ``rummy500 serve`` processes and databases of the server tests, and the browser
# tests' Chromium.
pytest_plugins = ["serverkit", "browserkit", "xdistgroups"]

BROWSER_FIXTURES = frozenset({"browser"})
SERVER_FIXTURES = frozenset({"servers", "server", "web_server", "lone", "serve"})
"""Besides these, any fixture whose name ends in ``server`` or ``servers``."""
POSTGRES_FIXTURES = frozenset({"postgres_url", "worker_postgres_url"})
CLUSTER_FIXTURES = frozenset({"ray_head", "cluster"})
SLOW = frozenset({
    # Whole games, many times over (seconds of CPU each, for every preset).
    "tests/test_random_play.py::test_random_play_keeps_every_invariant",
    "tests/test_random_play.py::test_random_play_taking_lower_copies_keeps_every_invariant",
    "tests/test_records.py::test_replay_reproduces_random_whole_games",
    "tests/test_records.py::test_a_record_cut_anywhere_replays_to_that_position",
    "tests/test_positions.py::test_the_position_string_round_trips",
    "tests/test_set_suits.py::test_s3_set_suits_any_random_deals_keep_every_invariant__001",
    "tests/test_rl_actions.py::test_every_legal_move_round_trips_and_the_mask_is_exact",
    "tests/test_view_copies.py::test_which_copy_lies_where_is_invisible",
    "tests/test_protocol_v3.py::test_folding_every_update_gives_the_state_a_new_welcome_gives",
    "tests/test_tui.py::test_a_whole_game_played_with_keys_and_clicks",
    "tests/test_tui_review.py::test_after_the_new_game_screen_the_keys_work_on_the_new_table",
    # Searches, training and the research environments' own test suites.
    "tests/test_rl_openspiel.py::test_ismcts_plays_against_rummy500_mcts",
    "tests/test_rl_openspiel.py::test_random_sim_test_with_serialization",
    "tests/test_rl_openspiel.py::test_resample_from_infostate_keeps_what_the_player_knows",
    "tests/test_rl_gymnasium.py::test_the_baseline_example_trains",
    "tests/test_search_shortcuts.py::test_search_moves_do_not_depend_on_what_the_caches_hold",
    "tests/test_cli.py::test_simulate_with_worlds_replays_mcts_exactly",
    # Benchmarks, tournaments and stopping rules run as commands (processes of their own),
    # and the cluster commands' time-outs.
    "tests/test_bench_variants.py",
    "tests/test_bench_server.py",
    "tests/test_search_shortcuts.py::test_bench_bots_times_both_codes_and_counts_differing_moves",
    "tests/test_tournament.py::test_bot_options_reach_every_process_and_bad_ones_are_refused",
    "tests/test_tournament.py::test_command_line_bot_options",
    "tests/test_tournament.py::test_a_search_of_fixed_worlds_replays_exactly",
    "tests/test_sprt.py::test_a_lopsided_match_stops_early_with_h1",
    "tests/test_sprt.py::test_the_stop_does_not_depend_on_which_set_finished_first",
    "tests/test_cluster.py::test_an_address_that_does_not_answer_is_one_line",
    "tests/test_cluster.py::test_a_join_that_hangs_ends_in_one_line",
})
"""Tests (``path::function``, every case) or whole modules (``path``) that take seconds of
CPU, or wait seconds, on their own while needing no fixture that would say so: measured
on a 2-core machine, they were two thirds of the CPU of the tests that need no server."""
WAITING = frozenset({
    # Turn clocks and time banks run out, processes restart, a killed or frozen process's
    # lease lapses, a full disk is noticed: seconds of waiting each, little CPU.
    "tests/test_server_clock_leave.py",
    "tests/test_server_durability.py",
    "tests/test_server_attack_fairness.py::test_a_killed_process_people_are_not_connected_for_ever",
    "tests/test_server_attack_fairness.py::test_a_frozen_process_people_come_back_when_it_does",
    "tests/test_server_attack_transport.py::test_a_full_disk_makes_the_server_unready_once_and_ready_again",
})
"""Server tests (``path::function``, every case, or whole modules) that mostly wait on real
time (measured alone: about 170 s, a fifth of it CPU), and whose time bounds are loose. Under
pytest-xdist they run in a row as one group, which goes first (the largest group) to one
worker while the others run the browser tests, which keep the two cores busy anyway; left
among the last tests they ran side by side and left the cores idle. A test whose bounds are
tight (an undo made within the computer player's pace) stays out of it."""
POSTGRES_PARAMS = ("database_url", "server")
"""Fixtures whose ``postgresql`` case is a PostgreSQL test."""
SHARED_ACROSS_MODULES = frozenset({"browser"})
"""Module-scoped fixtures whose value outlives the module (browserkit keeps Chromium for
the next browser test, wherever it is)."""


def module_bound(item: pytest.Item) -> bool:
    """Whether ``item`` uses a module-scoped fixture (a Ray head, a server, a game played
    once for several tests): under pytest-xdist (``--dist loadgroup``) the tests of its
    module that do run on one worker, so that it is made once."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(definitions and definitions[-1].scope == "module"
               for name, definitions in info.name2fixturedefs.items()
               if name not in SHARED_ACROSS_MODULES)


def listed(item: pytest.Item, names: frozenset[str]) -> bool:
    """Whether ``names`` (of :data:`SLOW`'s and :data:`WAITING`'s form) hold ``item``'s
    function (every case of it) or its whole module."""
    function = item.nodeid.split("[", 1)[0]
    return function in names or function.split("::", 1)[0] in names


def needs(item: pytest.Item) -> set[str]:
    """The markers of what ``item`` needs, from its fixtures and their parameters."""
    names = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    params: dict[str, object] = dict(callspec.params) if callspec is not None else {}
    found = set()
    if names & BROWSER_FIXTURES:
        found.add("browser")
    if names & SERVER_FIXTURES or any(name.endswith(("server", "servers")) for name in names):
        found.add("server")
    if names & POSTGRES_FIXTURES or any(params.get(name) == "postgresql"
                                        for name in POSTGRES_PARAMS):
        found.add("postgres")
    if names & CLUSTER_FIXTURES:
        found.add("cluster")
    if found & {"browser", "cluster"} or listed(item, SLOW):
        found.add("slow")
    return found


def first_to_start(item: pytest.Item) -> int:
    """Under pytest-xdist the longest tests start first, so that none is left alone at the
    end: a cluster's, then the browser's (each worker runs its browser tests in a row, on
    one Chromium), then the other slow ones, then the rest in their order."""
    for order, marker in enumerate(("cluster", "browser", "slow")):
        if item.get_closest_marker(marker):
            return order
    return 3


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for marker in sorted(needs(item)):
            item.add_marker(marker)
        if module_bound(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
        elif listed(item, WAITING):
            item.add_marker(pytest.mark.xdist_group("waiting"))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=first_to_start)

