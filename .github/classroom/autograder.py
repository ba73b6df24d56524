#!/usr/bin/env python3
"""Classroom 50 entry point for this kit: publish it as the assignment's autograder.py (README § Autograding).

Classroom 50's runner starts it in the learner's checkout with the submission's identity in the environment
(CLASSROOM, ASSIGNMENT, SUBMISSION_TAG, OWNER, COMMIT_URL, …) and reads the result.json it leaves there. It grades
the learner's Exercises/ with the tests of a pristine copy of the kit, fetched from LAB_KIT_REPOSITORY (a git URL;
set it below or in the environment), never with the learner's own Tests/ or Package.swift.
"""
import os
import pathlib
import subprocess
import sys
import tempfile

# Your kit's git URL: replace the placeholder on the next line, or set LAB_KIT_REPOSITORY in the environment.
KIT = os.environ.get("LAB_KIT_REPOSITORY", "https://github.com/OWNER/REST-LAB-KIT.git")

# A failure here is one line for the log, not a Python traceback.
if "OWNER/REST-LAB-KIT" in KIT:
    sys.exit("autograder.py: no kit to grade with: put your kit's git URL in this file (KIT, in place of "
             "the placeholder) or in LAB_KIT_REPOSITORY")
checkout = pathlib.Path.cwd()
scratch = pathlib.Path(tempfile.mkdtemp(prefix="lab-kit-"))
# mkdtemp makes it 0700: run as root, `lab grade`'s sandbox runs the learner's tests as `nobody`, which must be able
# to read the kit, or the tests run without the sandbox's process limit (the notes say so).
scratch.chmod(0o755)
kit = scratch / "kit"
clone = subprocess.run(["git", "clone", "--quiet", "--depth", "1", KIT, str(kit)])
if clone.returncode != 0:
    sys.exit(f"autograder.py: could not clone the kit from {KIT} (git's message is above): nothing was graded")
# Exits 0 whatever the tests did; result.json then says what they did (classroom50/result/v1).
grade = subprocess.run(["swift", "run", "lab", "grade", str(checkout), "--classroom50", str(checkout / "result.json")],
                       cwd=kit)
sys.exit(grade.returncode)
