// SPDX-License-Identifier: Apache-2.0
// A 2-rank MPI program making a known number of each call with known sizes, peers, tags and
// roots (tests/capture/test_mpi.py holds the expected table). It checks the data it receives
// and prints "mpi_calls: rank R ok" on success, so wrapping must not change results.
// Built twice: as a program, and (GSYS_MPI_CALLS_LIBRARY) as a shared library that
// mpi_loader.c dlopens with RTLD_LOCAL, so libmpi is outside the global scope (the pattern of
// a Python extension linked to libmpi).
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int g_errors = 0;
#define EXPECT(cond)                                                       \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "mpi_calls: line %d: %s failed\n", __LINE__, #cond); \
      ++g_errors;                                                          \
    }                                                                      \
  } while (0)

static void PointToPoint(int rank, int peer) {
  int a[100];
  for (int i = 0; i < 3; ++i) {  // rank 0: 3 x MPI_Send, rank 1: 3 x MPI_Recv (400 B, tag 7)
    if (rank == 0) {
      for (int j = 0; j < 100; ++j) a[j] = i * 1000 + j;
      MPI_Send(a, 100, MPI_INT, 1, 7, MPI_COMM_WORLD);
    } else {
      MPI_Recv(a, 100, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      EXPECT(a[99] == i * 1000 + 99);
    }
  }
  double out[2][10], in[2][10];
  MPI_Request req[4];
  for (int i = 0; i < 2; ++i) {  // 2 x MPI_Irecv + 2 x MPI_Isend (80 B, tag 11), 1 x MPI_Waitall
    for (int j = 0; j < 10; ++j) out[i][j] = rank * 100 + i * 10 + j;
    MPI_Irecv(in[i], 10, MPI_DOUBLE, peer, 11, MPI_COMM_WORLD, &req[i]);
    MPI_Isend(out[i], 10, MPI_DOUBLE, peer, 11, MPI_COMM_WORLD, &req[2 + i]);
  }
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  EXPECT(in[1][9] == peer * 100 + 19);
  char s[16] = "hello, peer", r[16] = {0};  // 1 x MPI_Irecv + 1 x MPI_Isend (16 B, tag 13)
  MPI_Request rr, sr;
  MPI_Irecv(r, 16, MPI_CHAR, peer, 13, MPI_COMM_WORLD, &rr);
  MPI_Isend(s, 16, MPI_CHAR, peer, 13, MPI_COMM_WORLD, &sr);
  MPI_Wait(&sr, MPI_STATUS_IGNORE);  // 2 x MPI_Wait
  MPI_Wait(&rr, MPI_STATUS_IGNORE);
  EXPECT(strcmp(r, "hello, peer") == 0);
  int so[4] = {rank, rank, rank, rank}, ri[4] = {0};  // 1 x MPI_Sendrecv (16 B, tag 21)
  MPI_Sendrecv(so, 4, MPI_INT, peer, 21, ri, 4, MPI_INT, peer, 21, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  EXPECT(ri[3] == peer);
}

static void Collectives(int rank) {
  MPI_Barrier(MPI_COMM_WORLD);  // 2 x MPI_Barrier
  int b[8] = {0};
  if (rank == 0) b[7] = 77;
  MPI_Bcast(b, 8, MPI_INT, 0, MPI_COMM_WORLD);  // root 0, 32 B
  EXPECT(b[7] == 77);
  double d[3] = {1, 2, 3}, dsum[3] = {0};
  MPI_Reduce(d, dsum, 3, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);  // root 1, 24 B
  if (rank == 1) EXPECT(dsum[2] == 6);
  for (int i = 0; i < 4; ++i) {  // 4 x MPI_Allreduce, 4 B
    int one = 1, two = 0;
    MPI_Allreduce(&one, &two, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(two == 2);
  }
  int g2[2] = {rank, rank}, g4[4] = {0};
  MPI_Allgather(g2, 2, MPI_INT, g4, 2, MPI_INT, MPI_COMM_WORLD);  // send 8 B, recv 16 B
  EXPECT(g4[3] == 1);
  int vcounts[2] = {1, 2}, vdispls[2] = {0, 1}, v3[3] = {0};
  MPI_Allgatherv(g2, rank + 1, MPI_INT, v3, vcounts, vdispls, MPI_INT, MPI_COMM_WORLD);
  EXPECT(v3[2] == 1);  // send 4 / 8 B, recv 12 B
  int g3[3] = {rank, rank, rank}, g6[6] = {0};
  MPI_Gather(g3, 3, MPI_INT, g6, 3, MPI_INT, 0, MPI_COMM_WORLD);  // root 0: send 12, recv 24
  if (rank == 0) EXPECT(g6[5] == 1);
  int gcounts[2] = {2, 1}, gdispls[2] = {0, 2};
  MPI_Gatherv(g3, 2 - rank, MPI_INT, v3, gcounts, gdispls, MPI_INT, 1, MPI_COMM_WORLD);
  int sc[4] = {10, 11, 12, 13}, sr[3] = {0};  // root 0: send 16, recv 8
  MPI_Scatter(sc, 2, MPI_INT, sr, 2, MPI_INT, 0, MPI_COMM_WORLD);
  EXPECT(sr[1] == (rank == 0 ? 11 : 13));
  int svcounts[2] = {3, 1}, svdispls[2] = {0, 3};  // root 1: send 16; recv 12 / 4
  MPI_Scatterv(sc, svcounts, svdispls, MPI_INT, sr, 3 - 2 * rank, MPI_INT, 1, MPI_COMM_WORLD);
  EXPECT(sr[0] == 10 + 3 * rank);
  int a2[2] = {rank, rank}, a2r[2] = {0};
  MPI_Alltoall(a2, 1, MPI_INT, a2r, 1, MPI_INT, MPI_COMM_WORLD);  // 8 B each way
  EXPECT(a2r[1] == 1);
  int tv[5] = {rank, rank, rank, rank, rank}, tvr[5] = {0};
  int tcounts[2] = {1 + rank, 2 + rank}, tdispls[2] = {0, 1 + rank};  // 12 B / 20 B each way
  MPI_Alltoallv(tv, tcounts, tdispls, MPI_INT, tvr, tcounts, tdispls, MPI_INT, MPI_COMM_WORLD);
  EXPECT(tvr[tdispls[1]] == 1);
  int rs[3] = {1, 1, 1}, rsr[2] = {0}, rscounts[2] = {1, 2};  // send 12, recv 4 / 8
  MPI_Reduce_scatter(rs, rsr, rscounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT(rsr[0] == 2);
  int rb[4] = {1, 1, 1, 1}, rbr[2] = {0};  // send 16, recv 8
  MPI_Reduce_scatter_block(rb, rbr, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT(rbr[1] == 2);
  int x = rank + 1, scan = 0, exscan = 0;  // 4 B each way
  MPI_Scan(&x, &scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(&x, &exscan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT(scan == (rank == 0 ? 1 : 3));
  MPI_Request req;  // MPI_Iallreduce (8 B) + MPI_Ibarrier, each completed by MPI_Wait
  long l = 5, lsum = 0;
  MPI_Iallreduce(&l, &lsum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  EXPECT(lsum == 10);
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
}

#ifdef GSYS_MPI_CALLS_LIBRARY
__attribute__((visibility("default"))) int gsys_mpi_calls_main(int argc, char** argv) {
#else
int main(int argc, char** argv) {
#endif
  MPI_Init(&argc, &argv);
  int rank = -1, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "mpi_calls: needs exactly 2 ranks (got %d)\n", size);
    MPI_Finalize();
    return 2;
  }
  PointToPoint(rank, 1 - rank);
  Collectives(rank);
  MPI_Comm dup, split;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &split);
  MPI_Comm_free(&split);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  if (g_errors == 0) printf("mpi_calls: rank %d ok\n", rank);
  return g_errors == 0 ? 0 : 1;
}
