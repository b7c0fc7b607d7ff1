"""Running the matrix: the matrix's definition, targets (loop images, devices, folders), the
filesystems, the workloads, system facts, external tools, many clients, and leftovers of
interrupted runs. It writes result files through results/ and never imports site/."""
