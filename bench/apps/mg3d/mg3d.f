c=======================================================================
c     MG3D: V-cycle multigrid for the periodic 3D Poisson problem
c           A u = v on an nx x ny x nz grid, fixed-form FORTRAN 77.
c
c     A is a 27-point operator (centre, faces, edges, corners weights
c     A(0:3)); the smoother adds C r with a 27-point C(0:3).  Every
c     level keeps one ghost layer on each face, refreshed by COMM3
c     (periodic face copies) after each kernel that writes a field.
c     The levels of U and R live one after another in one long work
c     array each; level K starts at element IR(K), and a level is
c     handed to the kernels by sequence association, CALL
c     RESID(U(IR(K)),...), as codes of this kind do.  The coarse-grid
c     residual is formed in place: RESID(U(IR(K)),R(IR(K)),R(IR(K))).
c
c     Grid sizes: any interior extents that share a power of two;
c     coarsening stops when an extent becomes odd or drops below 4.
c
c     usage: mg3d [nx ny nz [nit]]         (default 32 32 32 4)
c=======================================================================
      program mg3d
      implicit none
      integer maxlev
      parameter (maxlev = 16)
      integer nx, ny, nz, nit, lt, k, it, nr, nv, nargs
      integer m1(maxlev), m2(maxlev), m3(maxlev), ir(maxlev)
      integer i1, i2, i3, n1, n2, n3
      integer*8 t0, t1, rate
      double precision, allocatable :: u(:), v(:), r(:)
      double precision a(0:3), c(0:3), rnm2, rnmu, rnm20, usum
      double precision wall, flups
      character*32 arg, s1, s2, s3, s4, s5, s6

c     operator: the 27-point Laplacian, h**2 scaled
      data a / -4.2666666666666666D0, 0.46666666666666667D0,
     >          0.1D0, 0.033333333333333333D0 /
c     smoother: damped Jacobi plus a little of the neighbours
      data c / -0.17D0, -0.012D0, -0.004D0, -0.001D0 /

      call system_clock(t0, rate)
      nx = 32
      ny = 32
      nz = 32
      nit = 4
      nargs = command_argument_count()
      if (nargs .ge. 3) then
         call get_command_argument(1, arg)
         read (arg, *) nx
         call get_command_argument(2, arg)
         read (arg, *) ny
         call get_command_argument(3, arg)
         read (arg, *) nz
      endif
      if (nargs .ge. 4) then
         call get_command_argument(4, arg)
         read (arg, *) nit
      endif

c     the levels, finest first, then their offsets in the work arrays
      call setlev(nx, ny, nz, maxlev, lt, m1, m2, m3)
      ir(lt) = 1
      do 10 k = lt - 1, 1, -1
         ir(k) = ir(k+1) + m1(k+1)*m2(k+1)*m3(k+1)
   10 continue
      nr = ir(1) + m1(1)*m2(1)*m3(1) - 1
      n1 = m1(lt)
      n2 = m2(lt)
      n3 = m3(lt)
      nv = n1*n2*n3
      allocate(u(nr), r(nr), v(nv))

      call zero3(u, n1, n2, n3)
      call zero3(r, n1, n2, n3)
      call setrhs(v, n1, n2, n3)
      call comm3(v, n1, n2, n3)

      call resid(u, v, r, n1, n2, n3, a)
      call comm3(r, n1, n2, n3)
      call norm2u3(r, n1, n2, n3, rnm20, rnmu, nx, ny, nz)
      do 20 it = 1, nit
         call mgvcyc(u, v, r, a, c, lt, m1, m2, m3, ir)
         call resid(u, v, r, n1, n2, n3, a)
         call comm3(r, n1, n2, n3)
   20 continue
      call norm2u3(r, n1, n2, n3, rnm2, rnmu, nx, ny, nz)

c     checksum of the solution, serial, in storage order
      usum = 0.0D0
      do 30 i3 = 1, n3
         do 30 i2 = 1, n2
            do 30 i1 = 1, n1
               usum = usum + u(i1 + n1*(i2-1) + n1*n2*(i3-1))
   30 continue
      call system_clock(t1)
      wall = dble(t1 - t0)/dble(rate)
      flups = dble(nx)*dble(ny)*dble(nz)*dble(nit)/wall*1.0D-6
      write (s1, '(f0.4)') wall
      write (s2, '(f0.2)') flups
      write (s3, '(es24.16e3)') rnm2
      write (s4, '(es24.16e3)') rnmu
      write (s5, '(es24.16e3)') usum
      write (s6, '(es24.16e3)') rnm20
      write (*, '(2a,i0,a,i0,a,i0,a,i0,a,i0,10a)') 'RESULT app=mg3d',
     >   ' size=', nx, 'x', ny, 'x', nz,
     >   ' iters=', nit, ' levels=', lt,
     >   ' wall_s=', trim(adjustl(s1)), ' fom=', trim(adjustl(s2)),
     >   ' fom_unit=MLUP/s rnm2=', trim(adjustl(s3)),
     >   ' rnmu=', trim(adjustl(s4)), ' usum=', trim(adjustl(s5))
      write (*, '(a,a)') 'INFO mg3d initial rnm2=', trim(adjustl(s6))
      end

c-----------------------------------------------------------------------
c     Level sizes, with one ghost layer on each side: level LT is the
c     finest, level 1 the coarsest.
c-----------------------------------------------------------------------
      subroutine setlev(nx, ny, nz, maxlev, lt, m1, m2, m3)
      implicit none
      integer nx, ny, nz, maxlev, lt, m1(maxlev), m2(maxlev), m3(maxlev)
      integer k1(64), k2(64), k3(64), l, k
      l = 1
      k1(1) = nx
      k2(1) = ny
      k3(1) = nz
  100 if (mod(k1(l), 2) .eq. 0 .and. mod(k2(l), 2) .eq. 0 .and.
     >    mod(k3(l), 2) .eq. 0 .and. min(k1(l), k2(l), k3(l)) .ge. 4
     >    .and. l .lt. maxlev) then
         k1(l+1) = k1(l)/2
         k2(l+1) = k2(l)/2
         k3(l+1) = k3(l)/2
         l = l + 1
         go to 100
      endif
      lt = l
      do 110 k = 1, lt
         m1(k) = k1(lt - k + 1) + 2
         m2(k) = k2(lt - k + 1) + 2
         m3(k) = k3(lt - k + 1) + 2
  110 continue
      end

c-----------------------------------------------------------------------
c     Right-hand side: ten unit charges and ten unit sinks at points
c     spread by a fixed integer hash, so that the mean is zero.
c-----------------------------------------------------------------------
      subroutine setrhs(v, n1, n2, n3)
      implicit none
      integer n1, n2, n3
      double precision v(n1, n2, n3)
      integer m, i1, i2, i3
      call zero3(v, n1, n2, n3)
      do 10 m = 1, 20
         i1 = 2 + mod(37*m*m + 11*m + 5, n1 - 2)
         i2 = 2 + mod(53*m + 17*m*m + 3, n2 - 2)
         i3 = 2 + mod(29*m*m*m + 7*m + 1, n3 - 2)
         if (m .le. 10) then
            v(i1, i2, i3) = v(i1, i2, i3) + 1.0D0
         else
            v(i1, i2, i3) = v(i1, i2, i3) - 1.0D0
         endif
   10 continue
      end

c-----------------------------------------------------------------------
c     One V-cycle: restrict the residual down to the coarsest level,
c     smooth there, then interpolate, re-form the residual and smooth
c     on the way back up.
c-----------------------------------------------------------------------
      subroutine mgvcyc(u, v, r, a, c, lt, m1, m2, m3, ir)
      implicit none
      integer lt, m1(lt), m2(lt), m3(lt), ir(lt)
      double precision u(*), v(*), r(*), a(0:3), c(0:3)
      integer k, j

      do 10 k = lt, 2, -1
         j = k - 1
         call rprj3(r(ir(k)), m1(k), m2(k), m3(k),
     >              r(ir(j)), m1(j), m2(j), m3(j))
         call comm3(r(ir(j)), m1(j), m2(j), m3(j))
   10 continue

      k = 1
      call zero3(u(ir(k)), m1(k), m2(k), m3(k))
      call psinv(r(ir(k)), u(ir(k)), m1(k), m2(k), m3(k), c)
      call comm3(u(ir(k)), m1(k), m2(k), m3(k))

      do 20 k = 2, lt - 1
         j = k - 1
         call zero3(u(ir(k)), m1(k), m2(k), m3(k))
         call interp(u(ir(j)), m1(j), m2(j), m3(j),
     >               u(ir(k)), m1(k), m2(k), m3(k))
         call comm3(u(ir(k)), m1(k), m2(k), m3(k))
         call resid(u(ir(k)), r(ir(k)), r(ir(k)),
     >              m1(k), m2(k), m3(k), a)
         call comm3(r(ir(k)), m1(k), m2(k), m3(k))
         call psinv(r(ir(k)), u(ir(k)), m1(k), m2(k), m3(k), c)
         call comm3(u(ir(k)), m1(k), m2(k), m3(k))
   20 continue

      if (lt .gt. 1) then
         j = lt - 1
         k = lt
         call interp(u(ir(j)), m1(j), m2(j), m3(j),
     >               u, m1(k), m2(k), m3(k))
         call comm3(u, m1(k), m2(k), m3(k))
         call resid(u, v, r, m1(k), m2(k), m3(k), a)
         call comm3(r, m1(k), m2(k), m3(k))
         call psinv(r, u, m1(k), m2(k), m3(k), c)
         call comm3(u, m1(k), m2(k), m3(k))
      endif
      end

c-----------------------------------------------------------------------
c     r = v - A u.  Each (i2,i3) row first sums the in-plane faces and
c     edges of u into two line buffers, then reads them at i1-1..i1+1.
c-----------------------------------------------------------------------
      subroutine resid(u, v, r, n1, n2, n3, a)
      implicit none
      integer nm
      parameter (nm = 2050)
      integer n1, n2, n3
      double precision u(n1, n2, n3), v(n1, n2, n3), r(n1, n2, n3)
      double precision a(0:3)
      double precision u1(nm), u2(nm)
      integer i1, i2, i3

c$omp parallel do private(i1, i2, u1, u2)
c$f2s stencil name(mg_resid)
      do 30 i3 = 2, n3 - 1
         do 20 i2 = 2, n2 - 1
            do 10 i1 = 1, n1
               u1(i1) = u(i1, i2-1, i3) + u(i1, i2+1, i3)
     >                + u(i1, i2, i3-1) + u(i1, i2, i3+1)
               u2(i1) = u(i1, i2-1, i3-1) + u(i1, i2+1, i3-1)
     >                + u(i1, i2-1, i3+1) + u(i1, i2+1, i3+1)
   10       continue
            do 15 i1 = 2, n1 - 1
               r(i1, i2, i3) = v(i1, i2, i3) - a(0)*u(i1, i2, i3)
     >            - a(1)*(u(i1-1, i2, i3) + u(i1+1, i2, i3) + u1(i1))
     >            - a(2)*(u2(i1) + u1(i1-1) + u1(i1+1))
     >            - a(3)*(u2(i1-1) + u2(i1+1))
   15       continue
   20    continue
   30 continue
      end

c-----------------------------------------------------------------------
c     Smoother: u = u + C r, with the same row buffers over r.
c-----------------------------------------------------------------------
      subroutine psinv(r, u, n1, n2, n3, c)
      implicit none
      integer nm
      parameter (nm = 2050)
      integer n1, n2, n3
      double precision r(n1, n2, n3), u(n1, n2, n3), c(0:3)
      double precision r1(nm), r2(nm)
      integer i1, i2, i3

c$omp parallel do private(i1, i2, r1, r2)
c$f2s stencil name(mg_psinv)
      do 30 i3 = 2, n3 - 1
         do 20 i2 = 2, n2 - 1
            do 10 i1 = 1, n1
               r1(i1) = r(i1, i2-1, i3) + r(i1, i2+1, i3)
     >                + r(i1, i2, i3-1) + r(i1, i2, i3+1)
               r2(i1) = r(i1, i2-1, i3-1) + r(i1, i2+1, i3-1)
     >                + r(i1, i2-1, i3+1) + r(i1, i2+1, i3+1)
   10       continue
            do 15 i1 = 2, n1 - 1
               u(i1, i2, i3) = u(i1, i2, i3) + c(0)*r(i1, i2, i3)
     >            + c(1)*(r(i1-1, i2, i3) + r(i1+1, i2, i3) + r1(i1))
     >            + c(2)*(r2(i1) + r1(i1-1) + r1(i1+1))
     >            + c(3)*(r2(i1-1) + r2(i1+1))
   15       continue
   20    continue
   30 continue
      end

c-----------------------------------------------------------------------
c     Full-weighting restriction of the fine residual r onto s.  Coarse
c     point j lies on fine point 2*j-2; the fine rows are summed into
c     buffers at the odd fine points 2*j1-3 between them.
c-----------------------------------------------------------------------
      subroutine rprj3(r, m1k, m2k, m3k, s, m1j, m2j, m3j)
      implicit none
      integer nm
      parameter (nm = 2050)
      integer m1k, m2k, m3k, m1j, m2j, m3j
      double precision r(m1k, m2k, m3k), s(m1j, m2j, m3j)
      double precision x1(nm), y1(nm), x2, y2
      integer i1, i2, i3, j1, j2, j3

c$omp parallel do private(j1, j2, i1, i2, i3, x1, y1, x2, y2)
c$f2s stencil name(mg_rprj3)
      do 30 j3 = 2, m3j - 1
         i3 = 2*j3 - 2
         do 20 j2 = 2, m2j - 1
            i2 = 2*j2 - 2
            do 10 j1 = 2, m1j
               i1 = 2*j1 - 3
               x1(i1) = r(i1, i2, i3-1) + r(i1, i2, i3+1)
     >                + r(i1, i2-1, i3) + r(i1, i2+1, i3)
               y1(i1) = r(i1, i2-1, i3-1) + r(i1, i2-1, i3+1)
     >                + r(i1, i2+1, i3-1) + r(i1, i2+1, i3+1)
   10       continue
            do 15 j1 = 2, m1j - 1
               i1 = 2*j1 - 2
               y2 = r(i1, i2-1, i3-1) + r(i1, i2-1, i3+1)
     >            + r(i1, i2+1, i3-1) + r(i1, i2+1, i3+1)
               x2 = r(i1, i2, i3-1) + r(i1, i2, i3+1)
     >            + r(i1, i2-1, i3) + r(i1, i2+1, i3)
               s(j1, j2, j3) = 0.5D0*r(i1, i2, i3)
     >            + 0.25D0*(r(i1-1, i2, i3) + r(i1+1, i2, i3) + x2)
     >            + 0.125D0*(x1(i1-1) + x1(i1+1) + y2)
     >            + 0.0625D0*(y1(i1-1) + y1(i1+1))
   15       continue
   20    continue
   30 continue
      end

c-----------------------------------------------------------------------
c     Trilinear prolongation: u = u + P z.  Coarse point j feeds fine
c     points 2*j-2 (on it) and 2*j-1 (half way to j+1); the rows of z
c     are paired into buffers first.
c-----------------------------------------------------------------------
      subroutine interp(z, mm1, mm2, mm3, u, n1, n2, n3)
      implicit none
      integer nm
      parameter (nm = 1026)
      integer mm1, mm2, mm3, n1, n2, n3
      double precision z(mm1, mm2, mm3), u(n1, n2, n3)
      double precision z1(nm), z2(nm), z3(nm)
      integer i1, i2, i3, j1, j2, j3

c$omp parallel do private(j1, j2, i1, i2, i3, z1, z2, z3)
c$f2s stencil name(mg_interp)
      do 30 j3 = 2, mm3 - 1
         i3 = 2*j3 - 2
         do 20 j2 = 2, mm2 - 1
            i2 = 2*j2 - 2
            do 10 j1 = 2, mm1
               z1(j1) = z(j1, j2+1, j3) + z(j1, j2, j3)
               z2(j1) = z(j1, j2, j3+1) + z(j1, j2, j3)
               z3(j1) = z(j1, j2+1, j3+1) + z(j1, j2, j3+1)
     >                + z(j1, j2+1, j3) + z(j1, j2, j3)
   10       continue
            do 15 j1 = 2, mm1 - 1
               i1 = 2*j1 - 2
               u(i1, i2, i3) = u(i1, i2, i3) + z(j1, j2, j3)
               u(i1+1, i2, i3) = u(i1+1, i2, i3)
     >            + 0.5D0*(z(j1+1, j2, j3) + z(j1, j2, j3))
               u(i1, i2+1, i3) = u(i1, i2+1, i3) + 0.5D0*z1(j1)
               u(i1+1, i2+1, i3) = u(i1+1, i2+1, i3)
     >            + 0.25D0*(z1(j1) + z1(j1+1))
   15       continue
            do 16 j1 = 2, mm1 - 1
               i1 = 2*j1 - 2
               u(i1, i2, i3+1) = u(i1, i2, i3+1) + 0.5D0*z2(j1)
               u(i1+1, i2, i3+1) = u(i1+1, i2, i3+1)
     >            + 0.25D0*(z2(j1) + z2(j1+1))
               u(i1, i2+1, i3+1) = u(i1, i2+1, i3+1) + 0.25D0*z3(j1)
               u(i1+1, i2+1, i3+1) = u(i1+1, i2+1, i3+1)
     >            + 0.125D0*(z3(j1) + z3(j1+1))
   16       continue
   20    continue
   30 continue
      end

c-----------------------------------------------------------------------
c     Periodic ghost layers: the faces normal to x, then y, then z,
c     each pass including the ghosts the previous ones filled, so that
c     edges and corners come out right.
c-----------------------------------------------------------------------
      subroutine comm3(u, n1, n2, n3)
      implicit none
      integer n1, n2, n3
      double precision u(n1, n2, n3)
      integer i1, i2, i3

c$omp parallel do private(i2)
c$f2s stencil name(mg_comm_x)
      do 10 i3 = 2, n3 - 1
         do 10 i2 = 2, n2 - 1
            u(1, i2, i3) = u(n1-1, i2, i3)
            u(n1, i2, i3) = u(2, i2, i3)
   10 continue
c$omp parallel do private(i1)
c$f2s stencil name(mg_comm_y)
      do 20 i3 = 2, n3 - 1
         do 20 i1 = 1, n1
            u(i1, 1, i3) = u(i1, n2-1, i3)
            u(i1, n2, i3) = u(i1, 2, i3)
   20 continue
c$omp parallel do private(i1)
c$f2s stencil name(mg_comm_z)
      do 30 i2 = 1, n2
         do 30 i1 = 1, n1
            u(i1, i2, 1) = u(i1, i2, n3-1)
            u(i1, i2, n3) = u(i1, i2, 2)
   30 continue
      end

c-----------------------------------------------------------------------
      subroutine zero3(z, n1, n2, n3)
      implicit none
      integer n1, n2, n3
      double precision z(n1, n2, n3)
      integer i1, i2, i3
c$omp parallel do private(i1, i2)
c$f2s stencil name(mg_zero3)
      do 10 i3 = 1, n3
         do 10 i2 = 1, n2
            do 10 i1 = 1, n1
               z(i1, i2, i3) = 0.0D0
   10 continue
      end

c-----------------------------------------------------------------------
c     The L2 norm of r over the interior, and its largest magnitude.
c-----------------------------------------------------------------------
      subroutine norm2u3(r, n1, n2, n3, rnm2, rnmu, nx, ny, nz)
      implicit none
      integer n1, n2, n3, nx, ny, nz
      double precision r(n1, n2, n3), rnm2, rnmu
      double precision s, a
      integer i1, i2, i3

      s = 0.0D0
      rnmu = 0.0D0
c$omp parallel do private(i1, i2, a) reduction(+:s) reduction(max:rnmu)
c$f2s stencil name(mg_norm)
      do 10 i3 = 2, n3 - 1
         do 10 i2 = 2, n2 - 1
            do 10 i1 = 2, n1 - 1
               s = s + r(i1, i2, i3)**2
               a = dabs(r(i1, i2, i3))
               if (a .gt. rnmu) rnmu = a
   10 continue
      rnm2 = dsqrt(s/(dble(nx)*dble(ny)*dble(nz)))
      end
