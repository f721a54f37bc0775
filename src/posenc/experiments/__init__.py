r"""Chapter 15's experiment: small Transformers trained with each position encoding.

A decoder-only Transformer of two layers (:mod:`posenc.experiments.model`) is trained on the
CPU with JAX and Optax (:mod:`posenc.experiments.train`) on two synthetic tasks
(:mod:`posenc.experiments.tasks`) at one length and evaluated at 1, 2, 4 and 8 times that
length. Position enters only through posenc's own NumPy functions
(:mod:`posenc.experiments.positions`): :func:`posenc.sinusoidal`, :func:`posenc.t5_bucket`,
:func:`posenc.alibi_bias`, :func:`posenc.frequencies` (RoPE), :func:`posenc.ntk_base`.

The grid (:data:`posenc.experiments.config.GRID`) is run by ``make experiments``
(``python -m posenc.experiments``), which writes one JSON record per run, with its
provenance, into ``posenc/experiments/results/``; :mod:`posenc.experiments.results` reads
them. Those records are committed: the book reads them and trains nothing.

Only :mod:`~posenc.experiments.model`, :mod:`~posenc.experiments.train` and the runner import
JAX; this package, its configuration, tasks, position terms and results need NumPy alone, so
a notebook that reads the results runs with the posenc wheel and no JAX. ``import posenc``
imports none of it. Derived in chapter 15 (:ref:`ch15-experiment`).
"""
