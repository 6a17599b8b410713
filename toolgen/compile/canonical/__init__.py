"""The inverse canonicalizers: the reference inverse (one interpreter of the rewrite record) and
the compiler that writes each contract's canonicalizer as plain Python, with the forward writer
the fakes use."""
