# SPDX-License-Identifier: GPL-2.0
"""Run the analysis's unittest modules (tests/unit/py/test_*.py) and print
the suite's TAP dialect (tests/lib.sh): "ok - <what>" / "not ok - <what>",
<what> the first line of each test's docstring; a failure's message
follows as "# " lines."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "lab", "lib", "py"))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True


class TapResult(unittest.TestResult):
    def name(self, test):
        doc = test.shortDescription() or test.id()
        return f"{test.__class__.__module__.removeprefix('test_')}: {doc}"

    def addSuccess(self, test):
        print(f"ok - {self.name(test)}", flush=True)

    def report(self, test, err):
        print(f"not ok - {self.name(test)}", flush=True)
        for line in self._exc_info_to_string(err, test).splitlines()[-6:]:
            print(f"#   {line}")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.report(test, err)

    def addError(self, test, err):
        super().addError(test, err)
        self.report(test, err)

    def addSkip(self, test, reason):
        print(f"ok - {self.name(test)} # SKIP {reason}", flush=True)


def main():
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    result = TapResult()
    suite.run(result)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
