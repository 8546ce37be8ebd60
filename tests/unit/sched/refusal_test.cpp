// A refused submission says which limit it hit in the scheduler's own words: each client reads
// its own (the batch runner only asks which).
#include <gtest/gtest.h>

#include "sched/pbs_client.hpp"
#include "sched/slurm_client.hpp"

using namespace aerun;

TEST(Refusal, SlurmArraySizeAndAccountingPolicy) {
  const SlurmClient slurm;
  // sbatch's messages (src/common/slurm_errno.c: ESLURM_INVALID_ARRAY, ESLURM_ACCOUNTING_POLICY).
  EXPECT_EQ(slurm.refusal("sbatch: error: Batch job submission failed: Invalid job array "
                          "specification"),
            Refusal::ArrayTooLarge);
  EXPECT_EQ(slurm.refusal("sbatch: error: AssocMaxSubmitJobLimit\nsbatch: error: Batch job "
                          "submission failed: Job violates accounting/QOS policy (job submit "
                          "limit, user's size and/or time limits)"),
            Refusal::QueueLimit);
  EXPECT_EQ(slurm.refusal("sbatch: error: invalid partition specified: gpu"), Refusal::Other);
  EXPECT_NE(slurm.queue_limit_command().find("sacctmgr show assoc"), std::string::npos);
}

TEST(Refusal, PbsArraySizeAndEveryQueueLimitMessage) {
  const PbsClient pbs;
  // openpbs src/lib/Liblog/pbs_messages.c, with their %s filled as qsub prints them.
  EXPECT_EQ(pbs.refusal("qsub: Array job exceeds server or queue size limit"),
            Refusal::ArrayTooLarge);
  for (const char* m : {"qsub: Maximum number of jobs already in queue",
                        "qsub: Maximum number of jobs already in queue workq",
                        "qsub: Maximum number of jobs for user alice already in complex",
                        "qsub: would exceed queue workq's per-user limit",
                        "qsub: would exceed complex's per-project limit"})
    EXPECT_EQ(pbs.refusal(m), Refusal::QueueLimit) << m;
  EXPECT_EQ(pbs.refusal("qsub: Unknown queue"), Refusal::Other);
  EXPECT_EQ(pbs.queue_limit_command(), "qmgr -c 'list server max_queued'");
}
