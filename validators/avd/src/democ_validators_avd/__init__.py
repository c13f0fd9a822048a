"""Cross-check democ's Arista EOS output against Arista AVD's renderer (pyavd).

`check_build(BUILD_DIR)` converts each EOS switch's IR into AVD structured config,
validates it with `pyavd.validate_structured_config`, renders it with
`pyavd.get_device_config` and compares the result with democ's `switches/<name>.cfg`
as sets of (section, line) pairs. `python -m democ_validators_avd BUILD_DIR` prints the
report and exits 1 on any difference.
"""

from .convert import structured_config, supplement_lines
from .crosscheck import Report, SwitchResult, check_build, check_switch
from .eos_text import parse

__all__ = [
    "Report",
    "SwitchResult",
    "check_build",
    "check_switch",
    "parse",
    "structured_config",
    "supplement_lines",
]
