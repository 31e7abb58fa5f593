/* links.h — facts that cross files: what an imported name defines.
 *
 * A Links belongs to the linting of one file. It resolves names qualified
 * through the file's imports ("engine.evaluate", ".meters.AverageMeter")
 * to the definitions in the project's other files, following re-exports
 * (`from .meters import AverageMeter` in a package's __init__.py), and
 * remembers which files it consulted: the result of the lint depends on
 * them. With no project (standard input, a file seen alone) every query
 * finds nothing. */
#ifndef GPULINT_LINKS_H
#define GPULINT_LINKS_H

#include <stdbool.h>
#include <stdint.h>

#include "elsewhere.h"
#include "project.h"
#include "summary.h"
#include "syntax.h"

/* A definition in another file. */
typedef struct {
  const Summary *summary;           /* the file that defines it */
  const SummaryFunction *function;  /* a function or method, or NULL */
  const SummaryClass *class_;       /* a class, or NULL */
} Linked;

typedef struct {
  char *qualified;
  bool found;
  Linked linked;
} LinkMemo;

typedef struct Links {
  Project *project;            /* borrowed; NULL: the file is seen alone */
  char *folder;                /* the linted file's folder, absolute; owned */
  int32_t file;                /* the linted file's index in the listing, or -1 */
  Array(int32_t) consulted;    /* files whose summaries were read, in order */
  Array(struct LinkedConfig { char *path; uint64_t hash; }) configs; /* configuration files read, with the
                                                                        hash of their bytes; owned */
  Array(LinkMemo) memo;        /* answers already given */
  uint32_t caller_budget;      /* caller files links_callers may still read */
  Elsewhere elsewhere;         /* links_elsewhere's table */
} Links;

/* The files whose calls of the linted file's functions one lint reads at
 * most: linting a module that every file imports stays bounded (its
 * callers are then unknown: none is taken to run it with grad off). */
#define LINKS_CALLER_FILES 48

/* Links for the file at `path` in `project` (NULL for none); the caller
 * deletes them. */
Links *links_new(Project *project, const char *path);
void links_delete(Links *self);

/* The definition `qualified` names, as written in the file `from` (NULL:
 * the linted file): a function, a class, or a method
 * ("pkg.mod.Class.method"). False when it is no definition of the
 * project. */
bool links_find(Links *self, const Summary *from, Text qualified, Linked *out);

/* links_find from the file `from`, where the definition may also be
 * the linted file's own (its summary then answers). */
bool links_find_anywhere(Links *self, const Summary *from, Text qualified, Linked *out);

/* Notes that the lint's result depends on file `file` of the project. */
void links_consult(Links *self, int32_t file);

/* Notes that the lint's result depends on the configuration file at
 * `path` (absolute; copied), read with these bytes. */
void links_consult_config(Links *self, const char *path, const char *bytes, size_t length);

/* Whether a class of the project is an nn.Module: a base is a torch or
 * framework module class, or a project class that is one, or it defines
 * forward(). */
bool links_class_is_module(Links *self, const Summary *where, const SummaryClass *class_);

/* What a function of the project reaches (REACH bits), through the
 * imported functions it calls, a few files deep. */
uint32_t links_reaches(Links *self, const Summary *where, const SummaryFunction *function);

/* The callers of the linted file's module-level function `name`, or of
 * its method "Class.method" (called on instances of the class); with more
 * candidate files than the budget left, `any` and nothing else. */
Callers links_callers(Links *self, Text name);

/* links_callers for the function or "Class.method" `name` of the file
 * that `where` summarises (not the linted file, whose summary the lint
 * computes): the calls in every other file, the linted one included. */
Callers links_callers_of(Links *self, const Summary *where, Text name);

/* Whether another file of the project whose code holds the identifier
 * `word` (not only its comments or docstrings: project_file_mentions_in_code)
 * imports the linted file (whose own text does not count),
 * directly or through files it imports, up to
 * LINKS_IMPORT_DEPTH imports deep (train.py imports models/pspnet.py,
 * which imports models/resnet.py). Reads at most the caller budget's
 * files. */
#define LINKS_IMPORT_DEPTH 3
bool links_imported_by_file_mentioning(Links *self, const char *word);

/* The questions of the linted file's own model (elsewhere.h), answered by
 * these links: what facts_settle, roles.h and flow.h ask of other files.
 * Borrowed from `self`, valid while it lives. */
const Elsewhere *links_elsewhere(Links *self);

/* "utils.py:24" for a definition, relative to the project root; writes
 * into `buffer` and returns it. */
const char *links_where(const Links *self, const Linked *linked, char *buffer, size_t size);

#endif
