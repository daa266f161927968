// SPDX-License-Identifier: Apache-2.0
// A target built with -fsanitize=... at test time (faults.py sanitizer_* cases): threads, heap
// traffic, stdio, a sleep long enough to be an OS-runtime event, optionally a child process
// (whose exit status it prints) and a heap overflow that the sanitizer must still report.
//
// usage: sanitized_target [child CMD] [overflow]     exit code 3 unless the sanitizer ends it
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int counter;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void* Work(void* arg) {
  for (int i = 0; i < 1000; ++i) {
    char* b = malloc(64 + (size_t)i);
    memset(b, 'x', 64);
    pthread_mutex_lock(&lock);
    counter += b[i % 64] == 'x';
    pthread_mutex_unlock(&lock);
    free(b);
  }
  return arg;
}

int main(int argc, char** argv) {
  pthread_t t[4];
  for (int i = 0; i < 4; ++i) pthread_create(&t[i], NULL, Work, NULL);
  for (int i = 0; i < 4; ++i) pthread_join(t[i], NULL);
  struct timespec nap = {0, 20 * 1000 * 1000};
  nanosleep(&nap, NULL);
  printf("counter %d\n", counter);
  fprintf(stderr, "to stderr\n");
  fflush(NULL);
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "child") == 0 && i + 1 < argc) {
      int status = system(argv[++i]);
      printf("child status %d\n", status);
      fflush(stdout);
    } else if (strcmp(argv[i], "overflow") == 0) {
      char* p = malloc(8);
      memset(p, 'y', 8);
      volatile int at = 8 + (argc > 100);
      printf("overflow read %d\n", p[at]);  // one past the end: ASan aborts here
      free(p);
    }
  }
  return 3;
}
