/* options.h - the command line, parsed once into one struct */
#ifndef GH_OPTIONS_H
#define GH_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum gh_view_kind { GH_VIEW_LETTERS, GH_VIEW_BYTES, GH_VIEW_CLASSES };
enum gh_format { GH_FMT_TABLE, GH_FMT_TSV, GH_FMT_CSV, GH_FMT_JSON };
enum gh_backend_kind { GH_BACKEND_AUTO, GH_BACKEND_CPU, GH_BACKEND_GPU };
enum gh_progress_mode { GH_PROGRESS_AUTO, GH_PROGRESS_ON, GH_PROGRESS_OFF };

/* Most entries --devices takes (a device may be named more than once). */
#define GH_DEVICES_MAX 16

struct gh_options {
	enum gh_view_kind view;
	int width;                  /* letters per bucket, 1..26 */
	bool ignore_case;
	enum gh_format format;
	bool raw;                   /* no gzip detection */
	bool merge;                 /* operands are -f json results */
	int verbose;
	enum gh_progress_mode progress;
	enum gh_backend_kind backend;
	int devices[GH_DEVICES_MAX];   /* --device, --devices: CUDA numbers */
	int n_devices;              /* 0: none named (device 0) */
	bool all_devices;           /* --devices=all */
	uint64_t chunk_bytes;       /* 0: the backend's default */
	int streams;                /* 0: the GPU backend's default */
	int threads;                /* counting threads; all online cores */
	char **operands;            /* never empty: "-" when none given */
	int n_operands;
};

/* Largest --chunk-size: keeps every per-chunk counter inside 32 bits. */
#define GH_CHUNK_MAX ((uint64_t)1 << 31)

enum gh_parse_result { GH_PARSE_RUN, GH_PARSE_EXIT_OK, GH_PARSE_USAGE };

/* Reader threads for a regular file: --threads, at most
 * GH_READERS_PER_DEVICE for each device named (16 fill one H200), and
 * never more than GH_READERS_MAX. */
#define GH_READERS_PER_DEVICE 16
#define GH_READERS_MAX 64
int gh_options_readers(const struct gh_options *opts);

/* Fills opts; prints --help/--version itself (GH_PARSE_EXIT_OK) and usage
 * errors with a hint (GH_PARSE_USAGE). */
enum gh_parse_result gh_options_parse(int argc, char **argv,
				      struct gh_options *opts);

#endif
