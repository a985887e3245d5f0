# periodic_lengths.gp: accuracy against evaluation length, task periodic
# Written by ordo; edit freely and redraw with: gnuplot periodic_lengths.gp (writes periodic_lengths.png and periodic_lengths.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1251,620 font "sans,11" noenhanced
} else {
  set terminal svg size 1251,620 font "sans,11" noenhanced background "#ffffff"
}
set output "periodic_lengths." . format
set multiplot title "periodic: accuracy against evaluation length (final evaluation; bars: min-max over seeds; dotted: the longest training length)" font ",13"
set lmargin at screen 0.06394884093; set rmargin at screen 0.8633093525; set bmargin at screen 0.1129032258; set tmargin at screen 0.9032258065
set grid
set logscale x 2
set xrange [32:320]
set xtics ("train\n(16-64)" 40, "2x\n(128)" 128, "4x\n(256)" 256)
set xlabel offset 0,-0.6
set yrange [0:1.02]
set ytics 0,0.2
set arrow from 64, graph 0 to 64, graph 1 nohead dt 3 lc rgb "#666666"
set xlabel "evaluation length (log scale; dotted: the longest training length)"
set ylabel "accuracy"
set key at screen 0.8753093525, screen 0.9032258065 left top Left reverse samplen 4 spacing 1.15 width 1 font ",11" box lc rgb "#bbbbbb"
plot "periodic_lengths.dat" index 0 using ($1*0.9692898169):2:3:4 with yerrorlines lc rgb "#000000" lw 4 dt 1 pt 7 ps 0.9 title "none", \
     "periodic_lengths.dat" index 1 using ($1*0.9896566564):2:3:4 with yerrorlines lc rgb "#E69F00" lw 3.166666667 dt 1 pt 5 ps 0.9 title "rope", \
     "periodic_lengths.dat" index 2 using ($1*1.010451446):2:3:4 with yerrorlines lc rgb "#56B4E9" lw 2.333333333 dt 1 pt 9 ps 0.9 title "alibi", \
     "periodic_lengths.dat" index 3 using ($1*1.031683179):2:3:4 with yerrorlines lc rgb "#009E73" lw 1.5 dt 1 pt 13 ps 0.9 title "fire", \
     0.125 with lines dt 2 lc rgb "#555555" lw 1.5 title "chance"
unset multiplot
set output
}
