// Domain types and rules of the check-in station. No I/O.
