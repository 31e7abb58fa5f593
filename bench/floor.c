/* floor.c — the parse floor: what linting costs before any rule runs.
 *
 *   floor PATH ...
 *
 * Reads every .py file under the given paths (directories walked in sorted
 * order, symbolic links to directories not followed, as gpulint does),
 * parses it with the same pinned tree-sitter runtime and Python grammar that
 * gpulint links, and frees the tree. Prints the number of files and bytes.
 * Nothing else happens: no line index, no UTF-8 check, no walk of the tree. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_python(void);

typedef struct {
  TSParser *parser;
  size_t files;
  size_t bytes;
} Floor;

static int floor__compare(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads the whole file; the caller frees the bytes. NULL when unreadable. */
static char *floor__read(const char *path, size_t *length) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  struct stat info;
  if (fstat(fileno(file), &info) != 0) {
    fclose(file);
    return NULL;
  }
  char *bytes = malloc((size_t)info.st_size + 1);
  *length = bytes ? fread(bytes, 1, (size_t)info.st_size, file) : 0;
  fclose(file);
  return bytes;
}

static void floor_parse_file(Floor *self, const char *path) {
  size_t length = 0;
  char *bytes = floor__read(path, &length);
  if (!bytes) return;
  TSTree *tree = ts_parser_parse_string(self->parser, NULL, bytes, (uint32_t)length);
  ts_tree_delete(tree);
  free(bytes);
  self->files++;
  self->bytes += length;
}

static bool floor__is_python(const char *name) {
  size_t length = strlen(name);
  return length > 3 && strcmp(name + length - 3, ".py") == 0;
}

static void floor_walk(Floor *self, const char *directory) {
  DIR *dir = opendir(directory);
  if (!dir) return;
  char **names = NULL;
  size_t count = 0, capacity = 0;
  for (struct dirent *entry; (entry = readdir(dir));) {
    if (entry->d_name[0] == '.' && (!entry->d_name[1] || (entry->d_name[1] == '.' && !entry->d_name[2]))) continue;
    if (count == capacity) names = realloc(names, (capacity = capacity ? capacity * 2 : 64) * sizeof(char *));
    names[count++] = strdup(entry->d_name);
  }
  closedir(dir);
  if (count > 0) qsort(names, count, sizeof(char *), floor__compare);
  for (size_t i = 0; i < count; i++) {
    size_t length = strlen(directory) + strlen(names[i]) + 2;
    char *path = malloc(length);
    snprintf(path, length, "%s/%s", directory, names[i]);
    struct stat info;
    if (lstat(path, &info) == 0 && S_ISDIR(info.st_mode)) floor_walk(self, path);
    else if (floor__is_python(names[i])) floor_parse_file(self, path);
    free(path);
    free(names[i]);
  }
  free(names);
}

int main(int argc, char **argv) {
  Floor self = {ts_parser_new(), 0, 0};
  ts_parser_set_language(self.parser, tree_sitter_python());
  for (int i = 1; i < argc; i++) {
    struct stat info;
    if (stat(argv[i], &info) == 0 && S_ISDIR(info.st_mode)) floor_walk(&self, argv[i]);
    else floor_parse_file(&self, argv[i]);
  }
  ts_parser_delete(self.parser);
  printf("%zu files, %zu bytes\n", self.files, self.bytes);
  return 0;
}
