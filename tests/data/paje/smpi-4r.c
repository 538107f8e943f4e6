#include <mpi.h>
int main(int argc,char**argv){MPI_Init(&argc,&argv);int r,n;MPI_Comm_rank(MPI_COMM_WORLD,&r);MPI_Comm_size(MPI_COMM_WORLD,&n);
double x[100]={0};MPI_Request q;
if(r==0)MPI_Send(x,100,MPI_DOUBLE,1,7,MPI_COMM_WORLD); else if(r==1)MPI_Recv(x,100,MPI_DOUBLE,0,7,MPI_COMM_WORLD,MPI_STATUS_IGNORE);
MPI_Irecv(x,10,MPI_DOUBLE,(r+n-1)%n,3,MPI_COMM_WORLD,&q);MPI_Send(x+50,10,MPI_DOUBLE,(r+1)%n,3,MPI_COMM_WORLD);MPI_Wait(&q,MPI_STATUS_IGNORE);
MPI_Allreduce(MPI_IN_PLACE,x,4,MPI_DOUBLE,MPI_SUM,MPI_COMM_WORLD);MPI_Barrier(MPI_COMM_WORLD);MPI_Finalize();return 0;}
