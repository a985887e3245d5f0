# copy_lengths.gp: accuracy against evaluation length, task copy
# Written by ordo; edit freely and redraw with: gnuplot copy_lengths.gp (writes copy_lengths.png and copy_lengths.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1310,620 font "sans,11" noenhanced
} else {
  set terminal svg size 1310,620 font "sans,11" noenhanced background "#ffffff"
}
set output "copy_lengths." . format
set multiplot title "copy: accuracy against evaluation length (final evaluation; bars: min-max over seeds; dotted: the longest training length)" font ",13"
set lmargin at screen 0.06106870229; set rmargin at screen 0.8244274809; set bmargin at screen 0.1129032258; set tmargin at screen 0.9032258065
set grid
set logscale x 2
set xrange [16:160]
set xtics ("train\n(8-32)" 20, "2x\n(64)" 64, "4x\n(128)" 128)
set xlabel offset 0,-0.6
set yrange [0:1.02]
set ytics 0,0.2
set arrow from 32, graph 0 to 32, graph 1 nohead dt 3 lc rgb "#666666"
set xlabel "evaluation length (log scale; dotted: the longest training length)"
set ylabel "accuracy"
set key at screen 0.8364274809, screen 0.9032258065 left top Left reverse samplen 4 spacing 1.15 width 1 font ",11" box lc rgb "#bbbbbb"
plot "copy_lengths.dat" index 0 using ($1*0.9298049426):2:3:4 with yerrorlines lc rgb "#000000" lw 4 dt 1 pt 7 ps 0.9 title "none", \
     "copy_lengths.dat" index 1 using ($1*0.949342121):2:3:4 with yerrorlines lc rgb "#E69F00" lw 3.642857143 dt 1 pt 5 ps 0.9 title "rope", \
     "copy_lengths.dat" index 2 using ($1*0.9692898169):2:3:4 with yerrorlines lc rgb "#56B4E9" lw 3.285714286 dt 1 pt 9 ps 0.9 title "alibi", \
     "copy_lengths.dat" index 3 using ($1*0.9896566564):2:3:4 with yerrorlines lc rgb "#009E73" lw 2.928571429 dt 1 pt 13 ps 0.9 title "rope+none", \
     "copy_lengths.dat" index 4 using ($1*1.010451446):2:3:4 with yerrorlines lc rgb "#0072B2" lw 2.571428571 dt 1 pt 3 ps 0.9 title "fox", \
     "copy_lengths.dat" index 5 using ($1*1.031683179):2:3:4 with yerrorlines lc rgb "#D55E00" lw 2.214285714 dt 1 pt 2 ps 0.9 title "stickbreaking", \
     "copy_lengths.dat" index 6 using ($1*1.053361036):2:3:4 with yerrorlines lc rgb "#CC79A7" lw 1.857142857 dt 1 pt 1 ps 0.9 title "path", \
     "copy_lengths.dat" index 7 using ($1*1.07549439):2:3:4 with yerrorlines lc rgb "#000000" lw 1.5 dt (10,5) pt 5 ps 0.9 title "pope", \
     0.125 with lines dt 2 lc rgb "#555555" lw 1.5 title "chance"
unset multiplot
set output
}
