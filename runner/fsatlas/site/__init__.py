"""Deriving the site from result files and curated knowledge: aggregates, the explorer's data,
result tables, and the incremental Hugo build. It reads results/ and the matrix's definitions
in run/; only the commands import it."""
