"""Shared test settings: hypothesis profiles.

The ``ci`` profile is loaded by default; choose another with
``HYPOTHESIS_PROFILE=dev`` (quick) or ``HYPOTHESIS_PROFILE=soak`` (long). Random-play
tests scale with ``RUMMY500_SOAK=N`` (deals per configuration).
"""

from __future__ import annotations

import os

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
pytest_plugins = ["serverkit", "browserkit"]
