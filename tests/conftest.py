"""Suite-wide settings.

Hypothesis draws fresh cases on every run by default, which is what a developer's run
wants (it keeps finding new inputs). Under CI (``CI`` set, as ``.ci/run`` is run) the
``ci`` profile derandomises it so that a landing is judged on the same cases every time;
``HYPOTHESIS_PROFILE=dev`` or ``=ci`` overrides either way.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
