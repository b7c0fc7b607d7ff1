"""The result file, the contract every stage stands on: its schema (../schema/), reading and
atomic writing, validation, statistics, the privacy scan, and the readers of other tools'
output (fio JSON, bonnie++, IOzone, dd) that import and recompute figures. It imports neither
run/ nor site/."""
