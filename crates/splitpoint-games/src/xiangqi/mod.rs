//! Xiangqi, Chinese chess (in progress).
