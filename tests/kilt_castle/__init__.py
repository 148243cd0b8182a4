"""Tests of Kilt Castle (clangames.kilt_castle)."""
