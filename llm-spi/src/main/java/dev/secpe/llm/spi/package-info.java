/** Light provider interfaces discovered with {@link java.util.ServiceLoader}, and their config. */
package dev.secpe.llm.spi;
