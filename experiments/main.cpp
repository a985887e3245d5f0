// experiments/main.cpp: the `ordo` command-line program (placeholder until train lands).
#include <cstdio>
int main() { std::puts("ordo: no subcommands yet"); return 2; }
