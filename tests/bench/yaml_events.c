/* SPDX-License-Identifier: MIT */
/*
 * yaml_events - libyaml alone: parses a file into events and drops them.
 * The floor kfc's compile time is compared with (tests/bench/run_bench.py):
 * like kfc, it reads the whole file, then parses it from memory.
 *
 *   yaml_events FILE.yaml     prints the number of events
 */
#include <stdio.h>
#include <stdlib.h>

#include <yaml.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: yaml_events FILE.yaml\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    size_t size = 0, cap = 1 << 16;
    unsigned char *data = malloc(cap);
    for (size_t n; data && (n = fread(data + size, 1, cap - size, f)) > 0;) {
        size += n;
        if (size == cap)
            data = realloc(data, cap *= 2);
    }
    fclose(f);
    yaml_parser_t parser;
    if (!data || !yaml_parser_initialize(&parser)) {
        free(data);
        return 1;
    }
    yaml_parser_set_input_string(&parser, data, size);
    unsigned long events = 0;
    int done = 0, ok = 1;
    while (!done) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            fprintf(stderr, "%s:%lu:%lu: error: %s\n", argv[1],
                    (unsigned long)parser.problem_mark.line + 1,
                    (unsigned long)parser.problem_mark.column + 1,
                    parser.problem ? parser.problem : "parse error");
            ok = 0;
            break;
        }
        done = event.type == YAML_STREAM_END_EVENT;
        events++;
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    free(data);
    if (ok)
        printf("%lu\n", events);
    return !ok;
}
