import Puckd
import CMallocCounter

print("puckd-bench: no benchmarks yet")
