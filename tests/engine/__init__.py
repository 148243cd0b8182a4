"""Unit tests of the clangames kernel (clangames.engine)."""
