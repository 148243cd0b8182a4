"""Tests of clangames.testing (the conformance harness and strategies), with toy games."""
