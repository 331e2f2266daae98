fn main() {
    println!("nbcuda {}", env!("CARGO_PKG_VERSION"));
}
