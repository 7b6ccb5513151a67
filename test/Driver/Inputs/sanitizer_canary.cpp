// A program with one bug chosen by its argument, for test/Driver/sanitizers.test: in a sanitizer build the programs
// tests compile for the CPU must stop at it with the sanitizer's report.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "heap-overflow") == 0) {
    int *p = static_cast<int *>(std::malloc(4 * sizeof(int)));
    std::memset(p, 0, 4 * sizeof(int));
    int i = argc + 2; // 4: one past the end
    std::printf("%d\n", p[i]);
    std::free(p);
  } else if (argc > 1 && std::strcmp(argv[1], "signed-overflow") == 0) {
    int big = INT_MAX - 2 + argc; // INT_MAX
    std::printf("%d\n", big + argc);
  }
  std::printf("no bug\n");
  return 0;
}
