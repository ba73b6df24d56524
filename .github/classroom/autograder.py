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

KIT = os.environ.get("LAB_KIT_REPOSITORY", "https://github.com/OWNER/REST-LAB-KIT.git")

checkout = pathlib.Path.cwd()
kit = pathlib.Path(tempfile.mkdtemp(prefix="lab-kit-")) / "kit"
subprocess.run(["git", "clone", "--depth", "1", KIT, str(kit)], check=True)
# Exits 0 whatever the tests did; result.json then says what they did (classroom50/result/v1).
grade = subprocess.run(["swift", "run", "lab", "grade", str(checkout), "--classroom50", str(checkout / "result.json")],
                       cwd=kit)
sys.exit(grade.returncode)
