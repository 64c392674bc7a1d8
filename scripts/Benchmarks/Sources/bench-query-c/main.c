// bench-query-c: the reference of scripts/bench-query: statements run through SQLite's C API
// alone, as fast as C can: prepared once, then per iteration bound, stepped to the end with every
// column of every row read (text as text, integers as integers), and reset.
//
// Usage: bench-query-c DATABASE ITERATIONS --sql SQL [PARAMETER...] [--sql SQL [PARAMETER...]]...
//        a parameter is i:NUMBER (an integer) or t:TEXT (a text), bound in order.
// Prints one line: the median and the minimum microseconds of an iteration (all statements), the
// rows an iteration read, and a checksum of them (the sum of the integers of the first column).
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    sqlite3_stmt *statement;
    char **parameters;
    int count;
} Statement;

static void fail(sqlite3 *db, const char *what) {
    fprintf(stderr, "bench-query-c: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
    exit(1);
}

static double now_us(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return time.tv_sec * 1e6 + time.tv_nsec / 1e3;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 5 || strcmp(argv[3], "--sql") != 0) {
        fprintf(stderr, "usage: bench-query-c DATABASE ITERATIONS --sql SQL [i:N|t:TEXT]... [--sql ...]\n");
        return 2;
    }
    int iterations = atoi(argv[2]);
    sqlite3 *db;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) fail(db, "open");
    Statement statements[16];
    int count = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--sql") == 0 && i + 1 < argc && count < 16) {
            Statement *s = &statements[count++];
            if (sqlite3_prepare_v2(db, argv[++i], -1, &s->statement, NULL) != SQLITE_OK) fail(db, argv[i]);
            s->parameters = &argv[i + 1];
            s->count = 0;
        } else {
            statements[count - 1].count++;
        }
    }
    double *times = malloc(sizeof(double) * (size_t)iterations);
    int64_t rows = 0, checksum = 0;
    for (int iteration = 0; iteration < iterations; iteration++) {
        rows = 0;
        checksum = 0;
        double start = now_us();
        for (int k = 0; k < count; k++) {
            Statement *s = &statements[k];
            for (int p = 0; p < s->count; p++) {
                const char *value = s->parameters[p];
                if (value[0] == 'i') sqlite3_bind_int64(s->statement, p + 1, strtoll(value + 2, NULL, 10));
                else sqlite3_bind_text(s->statement, p + 1, value + 2, -1, SQLITE_STATIC);
            }
            int columns = sqlite3_column_count(s->statement), code;
            while ((code = sqlite3_step(s->statement)) == SQLITE_ROW) {
                rows++;
                for (int c = 0; c < columns; c++) {
                    switch (sqlite3_column_type(s->statement, c)) {
                    case SQLITE_INTEGER: {
                        int64_t value = sqlite3_column_int64(s->statement, c);
                        if (c == 0) checksum += value;
                        break;
                    }
                    case SQLITE_TEXT: {
                        const unsigned char *text = sqlite3_column_text(s->statement, c);
                        int bytes = sqlite3_column_bytes(s->statement, c);
                        if (text && bytes > 0) checksum += 0 * text[0];
                        break;
                    }
                    default: break;
                    }
                }
            }
            if (code != SQLITE_DONE) fail(db, "step");
            sqlite3_reset(s->statement);
        }
        times[iteration] = now_us() - start;
    }
    qsort(times, (size_t)iterations, sizeof(double), compare);
    printf("%.3f %.3f %lld %lld\n", times[iterations / 2], times[0], (long long)rows, (long long)checksum);
    for (int k = 0; k < count; k++) sqlite3_finalize(statements[k].statement);
    sqlite3_close(db);
    free(times);
    return 0;
}
