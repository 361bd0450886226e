/*
 * shard: which share of a list of files this process takes, for `gpulens
 * prep` over a Slurm job array (or any scheduler that sets the same
 * variables) or by hand.
 *
 * --shard I/N (0 <= I < N): the files whose index in the list is I modulo
 * N. Without it, SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, when
 * both are set, give I = SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN (0
 * when unset) and N = SLURM_ARRAY_TASK_COUNT: an array of consecutive
 * task ids (sbatch --array=0-63, or 1-64) covers every file once. Else
 * 0/1, every file.
 */
#ifndef GPULENS_SHARD_H
#define GPULENS_SHARD_H

struct shard {
	long		 index, count;
	int		 from_env;	/* from the SLURM_ARRAY_* variables */
};

/* Parses "I/N" into s. Returns 0, or -1 with *cause. */
int	 shard_parse(const char *, struct shard *, char **cause);
/* The shard from the environment (or 0/1). Returns 0, or -1 with *cause
 * when the variables are set but make no shard. */
int	 shard_env(struct shard *, char **cause);
/* 1 if item i of a list is in shard s. */
int	 shard_has(const struct shard *, unsigned long i);

#endif
