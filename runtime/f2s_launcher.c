/* The MPI launcher's view of a process: its rank among the ranks started on
 * its node, and how many those are. Shared by the CPU and the CUDA run-time
 * text (appended to each by the build), so valid C and C++; every name is
 * static. */
/* A non-negative integer from the environment, or -1. */
__attribute__((unused)) static int f2s_env_int_(const char *name) {
  const char *v = getenv(name);
  char *end;
  long n;
  if (!v || !*v)
    return -1;
  n = strtol(v, &end, 10);
  return *end == '\0' && n >= 0 && n < (1L << 30) ? (int)n : -1;
}

__attribute__((unused)) static void f2s_local_rank(int *rank, int *size) {
  /* Open MPI; MPICH and Intel MPI (Hydra); MVAPICH2; PMI launchers (Cray,
   * PALS); Slurm's srun when it was told the tasks per node. */
  static const char *const pairs[][2] = {
      {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
      {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
      {"MV2_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_SIZE"},
      {"PMI_LOCAL_RANK", "PMI_LOCAL_SIZE"},
      {"PALS_LOCAL_RANKID", "PALS_LOCAL_SIZE"},
      {"SLURM_LOCALID", "SLURM_NTASKS_PER_NODE"}};
  size_t i;
  for (i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) {
    int r = f2s_env_int_(pairs[i][0]), n = f2s_env_int_(pairs[i][1]);
    if (r >= 0 && n > 0 && r < n) {
      *rank = r;
      *size = n;
      return;
    }
  }
  *rank = 0;
  *size = 1;
}
