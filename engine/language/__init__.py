"""From rule-file text to a compiled program: loading, parsing, checking, compiling."""
